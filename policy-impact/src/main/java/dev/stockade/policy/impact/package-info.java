/**
 * Policy impact replay: recorded egress decisions and tool calls re-decided under a candidate policy with the same
 * core that decided them, and a report of what the candidate would newly deny, newly allow or leave unchanged. And the
 * reverse, {@link dev.stockade.policy.impact.Suggester}: the least-privilege policy a window of the trail justifies.
 * Framework-free, like the rest of the core; hosts read the trail and hand entries in one at a time.
 */
package dev.stockade.policy.impact;
