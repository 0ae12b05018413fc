/** The provisioner seam: where and how a sandbox's process tree runs (local namespaces or Kubernetes pods). */
package dev.stockade.api.sandbox.provision;
