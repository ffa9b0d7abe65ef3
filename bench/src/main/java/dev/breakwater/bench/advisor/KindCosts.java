package dev.breakwater.bench.advisor;

import dev.breakwater.tuner.advisor.Design;
import dev.breakwater.tuner.advisor.OperationCosts;
import dev.breakwater.tuner.advisor.Workload;

/**
 * One design's measured I/O pages per operation of each kind (Z0, Z1, Q, U) next to the model's
 * prediction; the cost of a mix is the mix-weighted sum, as in the model.
 *
 * @param design          the design as the engine ran it (write memory rounded up to 64 KiB, at least 1 MiB)
 * @param measured        pages per operation (Z0, Z1, Q, U) measured on the engine
 * @param predicted       the model's (Z0, Z1, Q, U)
 * @param levels          the model's level count
 * @param diskLevels      disk levels the engine's tree had after loading
 * @param bytesPerEntry   E measured after loading (SSTable bytes / N)
 * @param opsPerSecond    {writes per second of the write run, seconds of the read phases} (wall clock, on a shared machine)
 * @param breakdown       per kind, where the pages went ({@link ReadBreakdown#perOp()}; flush and merge pages for u);
 *                        empty for designs measured before it was recorded
 */
record KindCosts(Design design, double[] measured, double[] predicted, int levels, int diskLevels, double bytesPerEntry,
                 double[] opsPerSecond, java.util.Map<String, java.util.Map<String, Double>> breakdown) {

    double measuredCost(Workload w) {
        return dot(w, measured);
    }

    double predictedCost(Workload w) {
        return dot(w, predicted);
    }

    static double[] of(OperationCosts c) {
        return c.toArray();
    }

    private static double dot(Workload w, double[] c) {
        double[] p = w.toArray();
        double s = 0;
        for (int i = 0; i < 4; i++) {
            s += p[i] * c[i];
        }
        return s;
    }
}
