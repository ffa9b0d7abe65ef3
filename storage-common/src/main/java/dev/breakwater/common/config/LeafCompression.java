package dev.breakwater.common.config;

/** Compression of B+-tree leaf pages in disk components. */
public enum LeafCompression {
    /** Pages are stored as built. */
    NONE,
    /** Pages are LZ4-compressed before they are written. */
    LZ4
}
