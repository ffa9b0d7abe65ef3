package dev.breakwater.common.config;

/**
 * The data structure of a tree's active memory component M0 (paper 001). Every kind lives in
 * write-memory pages and is accounted page by page; they differ in what an insert, a point lookup and
 * a range scan cost.
 */
public enum MemoryComponentKind {
    /** A lock-free concurrent skip-list: O(log n) inserts, lookups and seeks (the default). */
    SKIP_LIST,
    /**
     * An append-only vector of records, sorted in place when it is first read after a write and when
     * it is sealed: the cheapest inserts, but a read that follows writes pays a sort of the whole
     * vector. Optionally pre-sized (memory-component-vector-reserve).
     */
    VECTOR,
    /**
     * A hash table on a key prefix (memory-component-hash-prefix bytes, memory-component-hash-buckets
     * buckets) whose buckets are skip-lists: fast point lookups; a range scan merges every bucket.
     */
    HASH_SKIP_LIST,
    /** Like {@link #HASH_SKIP_LIST}, but each bucket is a sorted singly linked list: for small buckets. */
    HASH_LINKED_LIST
}
