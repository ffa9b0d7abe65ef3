/**
 * Write memory (DESIGN.md §3–4): the global {@link dev.breakwater.lsm.memory.WriteMemoryPool} of
 * off-heap pages, seen by components only through {@link dev.breakwater.lsm.memory.PagePool}, and the
 * mutable memory component {@link dev.breakwater.lsm.memory.MemoryComponent}, a lock-free,
 * multi-version skip-list whose nodes ({@link dev.breakwater.lsm.memory.SkipListNodeDescriptor}) live
 * in pool pages.
 */
package dev.breakwater.lsm.memory;
