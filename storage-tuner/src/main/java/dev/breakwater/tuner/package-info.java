/**
 * The memory tuner (to come; DESIGN.md section 3): a feedback loop that, every tuning cycle, estimates
 * the derivative of I/O cost per operation with respect to write memory from the statistics of
 * {@code dev.breakwater.common.stats} and {@code dev.breakwater.buffercache}, and moves memory between
 * the global write-memory pool and the buffer cache (paper 000, section 5).
 */
package dev.breakwater.tuner;
