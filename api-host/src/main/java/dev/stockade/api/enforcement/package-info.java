/**
 * What each sandbox's egress proxy enforces, as the platform resolved it: written by the sandbox feature, streamed to
 * proxies by the proxy feed.
 */
package dev.stockade.api.enforcement;
