/**
 * The design advisor (paper 003, ENDURE; DESIGN.md section 9, docs/tuner.md "Design advisor"): an
 * analytical I/O cost model of an LSM-tree design for a workload mix ({@link
 * dev.breakwater.tuner.advisor.LsmCostModel}), the KL-divergence worst case of a cost over a
 * neighbourhood of the expected workload in its dual form ({@link
 * dev.breakwater.tuner.advisor.RobustCost}), and an exhaustive search over Breakwater's discrete knobs
 * for the nominal and the robust design ({@link dev.breakwater.tuner.advisor.DesignAdvisor}). Pure
 * math: no engine dependency; the {@code tools} module's {@code advise} command and the benchmarks
 * feed it.
 */
package dev.breakwater.tuner.advisor;
