package dev.stockade.policy.eval;

/** What {@link HostName#parse} makes of a host text: the host in its normal form, or a refusal. */
public sealed interface ParsedHost permits HostName, HostName.Refused {
}
