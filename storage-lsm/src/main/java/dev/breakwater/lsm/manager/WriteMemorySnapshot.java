package dev.breakwater.lsm.manager;

import dev.breakwater.common.config.FlushPolicyKind;
import dev.breakwater.common.config.WriteMemoryScheme;
import java.util.List;
import java.util.Map;

/**
 * What the write-memory manager reports (DESIGN.md section 6).
 *
 * @param usedBytes     write memory in use
 * @param capacityBytes the budget
 * @param scheme        memory scheme
 * @param policy        flush policy
 * @param trees         per tree: memory held, share of memory {@code a_i}, share of recent writes
 *                      {@code r_i/Σr}, and the average memory used to size its levels
 * @param utilization   pool utilization over time
 */
public record WriteMemorySnapshot(long usedBytes, long capacityBytes, WriteMemoryScheme scheme, FlushPolicyKind policy,
                                  Map<String, TreeShare> trees, List<UtilizationHistory.Sample> utilization) {

    /** One tree's shares. */
    public record TreeShare(long memoryBytes, double memoryShare, double writeShare, double averageMemoryBytes) {
    }
}
