package dev.stockade.pii;

/** A masking worker's health as the proxy reads it: a dead worker means 503 whatever {@code failOpen} says. */
public enum WorkerHealth {
    ALIVE,
    DEAD
}
