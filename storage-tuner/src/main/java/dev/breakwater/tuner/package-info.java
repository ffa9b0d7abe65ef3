/**
 * The memory tuner (DESIGN.md section 3, paper 000 section 5, docs/tuner.md): each tuning cycle turns
 * the difference of two statistics snapshots ({@link dev.breakwater.tuner.TuningSample}) into the
 * derivative of weighted I/O cost per operation with respect to write memory
 * ({@link dev.breakwater.tuner.CostModel}, eq. 4–6) and a new split between write memory and buffer
 * cache ({@link dev.breakwater.tuner.MemoryTuner}: Newton–Raphson with fallbacks, limits and stop
 * rules). Pure: no engine dependency; the engine adapts its statistics and applies the decisions
 * (storage-txn's {@code MemoryTunerService}).
 */
package dev.breakwater.tuner;
