package dev.breakwater.kstreams;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * Derives the Breakwater dataset name of one store of one task. Dataset names allow 1-64 letters,
 * digits and {@code _} (see {@code dev.breakwater.txn.Names}); Kafka store names also allow
 * {@code .} and {@code -} and may be long, and task ids carry a subtopology, a partition and maybe a
 * named topology. So the name is {@code ks_} + a readable, sanitized and possibly shortened
 * {@code <store>__<task>} + {@code _} + 8 hex digits of a CRC32C of the exact application id, store
 * name and task id, which keeps two stores apart whose readable parts sanitize or shorten to the same
 * text, and the stores of two applications that share one engine directory.
 *
 * <p>Thread safety: stateless.
 */
final class DatasetNames {

    /** Every dataset a store creates starts with this; the instance catalog does not. */
    static final String STORE_PREFIX = "ks_";
    /** The dataset in which an instance keeps its engine id and its stores (see {@link InstanceCatalog}). */
    static final String CATALOG = "kscatalog";

    private static final int MAX = 64;

    private DatasetNames() {
    }

    static String of(String applicationId, String storeName, String taskId) {
        CRC32C crc = new CRC32C();
        crc.update((applicationId + "\u0000" + storeName + "\u0000" + taskId).getBytes(StandardCharsets.UTF_8));
        String hash = String.format("%08x", crc.getValue());
        String readable = sanitize(storeName) + "__" + sanitize(taskId);
        int room = MAX - STORE_PREFIX.length() - 1 - hash.length();
        if (readable.length() > room) {
            readable = readable.substring(0, room);
        }
        return STORE_PREFIX + readable + "_" + hash;
    }

    private static String sanitize(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? c : '_');
        }
        return b.toString();
    }
}
