package dev.stockade.inference;

/**
 * The body to forward upstream after the proxy made sure a Chat Completions stream reports its usage.
 *
 * @param bytes               the body to send (the client's own bytes when nothing had to change)
 * @param clientAskedForUsage true when the client itself set {@code stream_options.include_usage=true}; when
 *                            false the proxy may withhold the extra usage chunk from the client with a
 *                            {@link ChatUsageFilter}
 * @param rewritten           true when {@code bytes} differ from the client's body
 */
public record ForwardBody(byte[] bytes, boolean clientAskedForUsage, boolean rewritten) {
}
