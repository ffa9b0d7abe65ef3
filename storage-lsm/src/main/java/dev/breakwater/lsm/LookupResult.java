package dev.breakwater.lsm;

/** Outcome of a point lookup in one component or a whole tree. */
public enum LookupResult {
    /** The key has a live value (copied into the caller's {@link ValueHolder}). */
    FOUND,
    /** The newest entry for the key is a tombstone: the key is deleted; older components must not be searched. */
    DELETED,
    /** This component has no entry for the key: search older components. */
    ABSENT
}
