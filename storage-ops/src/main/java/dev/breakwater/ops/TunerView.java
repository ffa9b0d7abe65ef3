package dev.breakwater.ops;

import dev.breakwater.txn.EngineStatistics;
import java.util.List;

/**
 * What the stats endpoint, the page and JMX show of the memory tuner: whether it runs, the weights it
 * prices I/O with, and its history of decisions.
 *
 * <p>This is the one place to wire the tuner in: {@link #of} reads it from {@link EngineStatistics}.
 * The tuner is not part of this build yet, so {@link #of} reports it as unavailable, with the default
 * weights (ω = γ = 1: a page written costs as much as a page read) and an empty history.
 *
 * @param available whether the engine runs a tuner that reports a history
 * @param note      why the history is empty, or what it holds
 * @param omega     weight of a page written (ω) in the I/O cost the tuner minimizes
 * @param gamma     weight of a page read (γ)
 * @param history   the tuner's decisions, oldest first (empty until the tuner reports them)
 */
public record TunerView(boolean available, String note, double omega, double gamma, List<Object> history) {

    /** Shown while no tuner reports through {@link EngineStatistics}. */
    public static final String NOT_AVAILABLE = "no memory tuner reports through EngineStatistics in this build; "
            + "history stays empty and I/O cost uses omega = gamma = 1";

    public TunerView {
        history = List.copyOf(history);
    }

    /** The tuner's view in {@code statistics}. */
    public static TunerView of(EngineStatistics statistics) {
        return new TunerView(false, NOT_AVAILABLE, 1.0, 1.0, List.of());
    }
}
