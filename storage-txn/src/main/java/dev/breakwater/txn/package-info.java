/**
 * The top of the storage stack (to come; DESIGN.md sections 2 and 5): the {@code StorageEngine}
 * facade, the persisted dataset catalog, datasets with primary and secondary LSM trees,
 * multi-record transactions with entity locks, the transaction log with group commit, checkpoints
 * and crash recovery.
 */
package dev.breakwater.txn;
