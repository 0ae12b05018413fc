package com.example.egress;

/**
 * One replacement of the service's program, reported to whoever watches (its tests, a log): which generation
 * now decides and whether the policy behind it compiled.
 *
 * @param generation 1 for the program loaded at start, then one more for each swap
 * @param policy     the name of the policy now deciding; empty when the file was not usable and the service now
 *                   denies everything
 * @param problems   why the file was not usable; empty when it was
 */
public record ProgramSwap(long generation, String policy, String problems) {
    /** Whether the policy compiled (the program is the policy's, not a deny-all). */
    public boolean usable() {
        return problems.isEmpty();
    }
}
