/**
 * LSM B+-trees (DESIGN.md section 4): off-heap memory components drawn from a write-memory pool,
 * immutable disk components (paged B+-trees with Bloom filters, in {@code sstable}) read through the
 * shared buffer cache, flush, partitioned leveling and tiering merges, and versioned manifests.
 * Common shapes: {@link dev.breakwater.lsm.EntryCursor} (sorted, allocation-free iteration),
 * {@link dev.breakwater.lsm.LookupResult} and {@link dev.breakwater.lsm.ValueHolder} (point lookups).
 */
package dev.breakwater.lsm;
