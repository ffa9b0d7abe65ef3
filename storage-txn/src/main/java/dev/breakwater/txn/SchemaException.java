package dev.breakwater.txn;

/** A value does not fit the dataset's schema (wrong type, null in a non-nullable field, wrong number of fields), a field or index name is unknown, or a dataset specification is invalid. */
public class SchemaException extends StorageException {

    private static final long serialVersionUID = 1L;

    public SchemaException(String message) {
        super(message);
    }

    public SchemaException(String message, Throwable cause) {
        super(message, cause);
    }
}
