/**
 * Write memory (DESIGN.md §3–4): the global {@link dev.breakwater.lsm.memory.WriteMemoryPool} of
 * off-heap pages, seen by components only through {@link dev.breakwater.lsm.memory.PagePool}, and the
 * mutable memory component {@link dev.breakwater.lsm.memory.MemoryComponent}, whose data structure
 * is pluggable ({@link dev.breakwater.lsm.memory.MemoryComponentSpec}, paper 001): the lock-free,
 * multi-version {@link dev.breakwater.lsm.memory.SkipListMemoryComponent} (the default) whose nodes
 * ({@link dev.breakwater.lsm.memory.SkipListNodeDescriptor}) live in pool pages, the append-and-sort
 * {@link dev.breakwater.lsm.memory.VectorMemoryComponent}, and the hash-on-prefix
 * {@link dev.breakwater.lsm.memory.HashMemoryComponent} with skip-list or linked-list buckets.
 */
package dev.breakwater.lsm.memory;
