/**
 * Breakwater's meters for hosts that use Micrometer: {@link dev.breakwater.ops.micrometer.BreakwaterMetrics}.
 * Micrometer is an optional dependency of this module; only this package touches it.
 */
package dev.breakwater.ops.micrometer;
