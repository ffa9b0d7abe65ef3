package dev.breakwater.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.Key;
import dev.breakwater.txn.StoredCatalog.StoredIndex;
import dev.breakwater.txn.Tuple;
import java.io.PrintWriter;
import java.util.HexFormat;

/**
 * Prints the entry a cursor is on, as a line of text or one JSON object per line. With a tree of
 * the catalog, keys are decoded into their fields and primary values into records (the catalog's
 * schema, the engine's codecs); without one, keys and values are hex.
 *
 * <p>Text: {@code (k1, k2) -> [v1, v2, ...]} (primary), {@code (k1, k2)} (secondary),
 * {@code key=HEX value=HEX} (raw); a tombstone ends with {@code DELETED}. JSON: {@code {"key":
 * [...], "record": {"field": value, ...}}}, {@code {"key": "HEX", "value": "HEX"}} raw, with
 * {@code "deleted": true} on tombstones; byte values are hex strings.
 *
 * <p>Thread safety: not thread-safe; one per command.
 */
final class EntryPrinter {

    private static final HexFormat HEX = HexFormat.of();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final PrintWriter out;
    private final StoredIndex index;
    private final DatasetSpec spec;
    private final boolean json;

    /** {@code index} and {@code spec} are null for raw output. */
    EntryPrinter(PrintWriter out, StoredIndex index, DatasetSpec spec, boolean json) {
        this.out = out;
        this.index = index;
        this.spec = spec;
        this.json = json;
    }

    void print(EntryCursor c) throws JsonProcessingException {
        if (json) {
            out.println(JSON.writeValueAsString(toJson(c)));
            return;
        }
        StringBuilder line = new StringBuilder();
        if (index == null) {
            line.append("key=").append(HEX.formatHex(c.key(), 0, c.keyLength()));
            if (!c.isTombstone()) {
                line.append(" value=").append(HEX.formatHex(c.value(), 0, c.valueLength()));
            }
        } else {
            line.append(keyText(index.decodeKey(c.key(), c.keyLength())));
            if (index.isPrimary() && !c.isTombstone()) {
                line.append(" -> ").append(recordText(index.decodeRecord(c.value(), c.valueLength())));
            }
        }
        if (c.isTombstone()) {
            line.append(" DELETED");
        }
        out.println(line);
    }

    private ObjectNode toJson(EntryCursor c) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        if (index == null) {
            o.put("key", HEX.formatHex(c.key(), 0, c.keyLength()));
            if (!c.isTombstone()) {
                o.put("value", HEX.formatHex(c.value(), 0, c.valueLength()));
            }
        } else {
            Key k = index.decodeKey(c.key(), c.keyLength());
            ArrayNode key = o.putArray("key");
            for (int i = 0; i < k.size(); i++) {
                key.addPOJO(jsonValue(k.get(i)));
            }
            if (index.isPrimary() && !c.isTombstone()) {
                Tuple t = index.decodeRecord(c.value(), c.valueLength());
                ObjectNode rec = o.putObject("record");
                for (int i = 0; i < t.size(); i++) {
                    rec.putPOJO(spec.fields().get(i).name(), jsonValue(t.get(i)));
                }
            }
        }
        if (c.isTombstone()) {
            o.put("deleted", true);
        }
        return o;
    }

    private static Object jsonValue(Object v) {
        return v instanceof byte[] b ? HEX.formatHex(b) : v;
    }

    private static String keyText(Key k) {
        StringBuilder s = new StringBuilder("(");
        for (int i = 0; i < k.size(); i++) {
            s.append(i == 0 ? "" : ", ").append(valueText(k.get(i)));
        }
        return s.append(')').toString();
    }

    private static String recordText(Tuple t) {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < t.size(); i++) {
            s.append(i == 0 ? "" : ", ").append(valueText(t.get(i)));
        }
        return s.append(']').toString();
    }

    private static String valueText(Object v) {
        if (v instanceof byte[] b) {
            return "0x" + HEX.formatHex(b);
        }
        return v instanceof String str ? '"' + str + '"' : String.valueOf(v);
    }
}
