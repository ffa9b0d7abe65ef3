/**
 * LSM B+-trees (to come; DESIGN.md section 4): off-heap memory components drawn from one global
 * write-memory pool, immutable disk components (paged B+-trees with Bloom filters) read through the
 * shared buffer cache, flush, partitioned leveling and tiering merges, and versioned manifests.
 */
package dev.breakwater.lsm;
