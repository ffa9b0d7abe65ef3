package dev.breakwater.tpcc;

/**
 * Thrown inside a transaction body when the specification requires the transaction to roll back
 * (New-Order with an unused item number, clause 2.4.2.3). The executor aborts the transaction and
 * counts it as a rollback; it is never retried.
 */
final class SpecRollback extends RuntimeException {

    private static final long serialVersionUID = 1L;

    SpecRollback(String message) {
        super(message, null, false, false);
    }
}
