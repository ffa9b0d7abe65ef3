package dev.breakwater.lsm.memory;

/** Handle of a registered listener; {@link #close()} unregisters it (idempotent). */
public interface ListenerRegistration extends AutoCloseable {

    @Override
    void close();
}
