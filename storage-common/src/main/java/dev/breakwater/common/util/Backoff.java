package dev.breakwater.common.util;

import java.util.concurrent.locks.LockSupport;

/**
 * How a thread waits for another thread to finish a short step (a write to publish, a writer to
 * leave a sealed table): spin briefly, then yield, then park for growing intervals up to 100 µs.
 * Pure spinning is wrong when threads outnumber cores: the spinner burns the CPU the thread it
 * waits for needs (with 32 committers on 2 cores it stretched commits to half a second).
 *
 * <p>Usage: {@code for (int i = 0; !condition(); i++) Backoff.pause(i);}
 *
 * <p>Thread safety: stateless; safe.
 */
public final class Backoff {

    private static final int SPINS = 64;
    private static final int YIELDS = 64;

    private Backoff() {
    }

    /** Waits a little; {@code attempt} counts the calls of one wait, from 0. */
    public static void pause(int attempt) {
        if (attempt < SPINS) {
            Thread.onSpinWait();
        } else if (attempt < SPINS + YIELDS) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(Math.min(100_000L, 1_000L << Math.min(7, (attempt - SPINS - YIELDS) / 16)));
        }
    }
}
