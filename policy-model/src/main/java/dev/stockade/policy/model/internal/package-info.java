/**
 * Reading, schema and semantic checks, and binding behind {@code PolicyReader}; not an API: other
 * modules use {@code dev.stockade.policy.model} only.
 */
package dev.stockade.policy.model.internal;
