package dev.breakwater.ops;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.tuner.TuningCycle;
import dev.breakwater.txn.EngineStatistics;
import java.util.List;

/**
 * What the stats endpoint, the page and JMX show of the memory tuner: whether it moves memory, the
 * weights it prices I/O with, and its history of cycles (docs/tuner.md).
 *
 * @param available whether the tuner moves memory ({@code tuner: true}); when off, the history still
 *                  records each cycle's measured cost while the split stays fixed
 * @param note      what the history holds
 * @param omega     weight of a page written (ω, {@code tuner-write-weight}) in the I/O cost
 * @param gamma     weight of a page read (γ, {@code tuner-read-weight})
 * @param history   the tuner's recent cycles, oldest first
 */
public record TunerView(boolean available, String note, double omega, double gamma, List<TuningCycle> history) {

    /** Shown when the tuner is on. */
    public static final String RUNNING = "the tuner moves memory between write memory and the buffer cache; "
            + "history holds its recent cycles, oldest first";
    /** Shown when the tuner is off. */
    public static final String OFF = "the tuner is off (tuner: false): the split stays fixed; "
            + "history records each cycle's measured cost";

    public TunerView {
        history = List.copyOf(history);
    }

    /** The tuner's view in {@code statistics} of an engine opened with {@code config}. */
    public static TunerView of(EngineStatistics statistics, StorageConfig config) {
        boolean on = config.get(ConfigOptions.TUNER);
        return new TunerView(on, on ? RUNNING : OFF, config.get(ConfigOptions.TUNER_WRITE_WEIGHT),
                config.get(ConfigOptions.TUNER_READ_WEIGHT), statistics.tuner());
    }
}
