package dev.breakwater.tuner;

/**
 * The cost model's answer for one cycle: the current I/O cost per operation and its derivative with
 * respect to write memory, term by term (paper 000, eq. 5 and 6). Derivatives are in pages per
 * operation per byte of write memory; costs in pages per operation.
 *
 * @param writePrime       {@code write'(x)}, eq. 5 (zero or negative)
 * @param simulatedPrime   {@code (saved_q + saved_m) / sim}, per operation: reads a smaller cache would add
 * @param mergeReadPrime   {@code write'(x) · read_m / merge}: merge reads saved along with merge writes
 * @param queryLevelsPrime query reads saved because more write memory leaves queries fewer disk levels
 *                         to read (zero or negative; zero when the term is off, see {@link CostModel})
 * @param writeCost        pages written per operation by flushes, merges and log trimming, {@code write(x)}
 * @param readCost         pages read from disk per operation by queries and merges, {@code read(x)}
 * @param omega            the write weight ω
 * @param gamma            the read weight γ
 * @param guardedTrees     trees whose term was set to zero or clamped by a guard (see {@link CostModel})
 */
public record CostDerivative(double writePrime, double simulatedPrime, double mergeReadPrime, double queryLevelsPrime,
                             double writeCost,
                             double readCost, double omega, double gamma, int guardedTrees) {

    /** {@code read'(x)}: eq. 6, plus the query-levels term when it is on. */
    public double readPrime() {
        return simulatedPrime + mergeReadPrime + queryLevelsPrime;
    }

    /** {@code cost'(x) = ω·write'(x) + γ·read'(x)}. */
    public double costPrime() {
        return omega * writePrime + gamma * readPrime();
    }

    /** {@code cost(x) = ω·write(x) + γ·read(x)}, weighted pages per operation. */
    public double cost() {
        return omega * writeCost + gamma * readCost;
    }
}
