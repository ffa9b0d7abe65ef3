package dev.breakwater.txn;

/**
 * One tree-level effect of a committed transaction: put {@code value} under {@code key} in tree
 * {@code treeId}, or delete {@code key} there. A transaction's log record is the list of its tree
 * ops, so recovery re-applies exactly what the commit applied, tree by tree.
 */
record TreeOp(long treeId, boolean delete, byte[] key, byte[] value) {

    static final byte[] EMPTY = new byte[0];

    static TreeOp put(long treeId, byte[] key, byte[] value) {
        return new TreeOp(treeId, false, key, value);
    }

    static TreeOp delete(long treeId, byte[] key) {
        return new TreeOp(treeId, true, key, EMPTY);
    }
}
