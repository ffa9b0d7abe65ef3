package dev.breakwater.txn;

import java.io.IOException;

/** An I/O error while reading or writing, wrapped so the API stays unchecked. The cause names the file. */
public class StorageIOException extends StorageException {

    private static final long serialVersionUID = 1L;

    public StorageIOException(String message, IOException cause) {
        super(message + ": " + cause.getMessage(), cause);
    }
}
