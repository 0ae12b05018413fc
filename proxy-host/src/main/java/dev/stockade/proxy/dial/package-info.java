/**
 * The dial guard: which addresses an outbound connection may reach (loopback, private ranges, metadata
 * endpoints, operator deny lists), judged on IP literals without DNS. Public so that every host that dials an
 * address a user named (the proxy, the platform's connectors and cluster relay) judges it by the same rules.
 */
package dev.stockade.proxy.dial;
