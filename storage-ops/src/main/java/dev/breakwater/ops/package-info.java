/**
 * Operability for a running engine: started by the engine itself ({@link dev.breakwater.ops.OpsExtension},
 * an {@link dev.breakwater.txn.EngineExtension}) from its configuration. Subpackages: {@code http} (the
 * read-only stats endpoint and page), {@code jmx} (MBeans), {@code micrometer} (a meter binder).
 * See {@code docs/operability.md}.
 */
package dev.breakwater.ops;
