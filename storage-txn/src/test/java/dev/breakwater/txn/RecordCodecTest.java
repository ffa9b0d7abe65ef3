package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.breakwater.common.key.FieldType;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link RecordCodec#encodedSize} against the encoder it stands in for, and a round trip. */
class RecordCodecTest {

    private static final DatasetSpec SPEC = DatasetSpec.builder("r").field("id", FieldType.INT64)
            .nullableField("i", FieldType.INT32).nullableField("d", FieldType.FLOAT64)
            .nullableField("s", FieldType.STRING).nullableField("t", FieldType.STRING)
            .nullableField("b", FieldType.BYTES).primaryKey("id").build();

    /** Strings made of the cases a UTF-8 length can get wrong: 1- to 3-byte chars, pairs, lone halves. */
    private static String randomString(SplittableRandom rnd) {
        StringBuilder sb = new StringBuilder();
        int n = rnd.nextInt(12);
        for (int i = 0; i < n; i++) {
            switch (rnd.nextInt(7)) {
                case 0 -> sb.append((char) rnd.nextInt(0x80));
                case 1 -> sb.append((char) (0x80 + rnd.nextInt(0x780)));
                case 2 -> sb.append((char) (0x800 + rnd.nextInt(0xD000 - 0x800)));
                case 3 -> sb.appendCodePoint(0x10000 + rnd.nextInt(0x100000)); // a surrogate pair
                case 4 -> sb.append((char) (0xD800 + rnd.nextInt(0x400))); // a lone high surrogate
                case 5 -> sb.append((char) (0xDC00 + rnd.nextInt(0x400))); // a lone low surrogate
                default -> sb.append((char) (0xE000 + rnd.nextInt(0x2000)));
            }
        }
        return sb.toString();
    }

    @Test
    void encodedSizeIsTheEncodedLengthForRandomRecords() {
        RecordCodec codec = new RecordCodec(SPEC);
        SplittableRandom rnd = new SplittableRandom(42);
        for (int k = 0; k < 20_000; k++) {
            String s = randomString(rnd);
            Tuple t = Tuple.of((long) k, rnd.nextBoolean() ? null : rnd.nextInt(), rnd.nextBoolean() ? null : rnd.nextDouble(),
                    rnd.nextInt(4) == 0 ? null : s, rnd.nextInt(4) == 0 ? null : randomString(rnd),
                    rnd.nextBoolean() ? null : new byte[rnd.nextInt(40)]);
            byte[] encoded = codec.encode(t);
            assertEquals(encoded.length, codec.encodedSize(t), () -> "record " + t);
            assertEquals(s.getBytes(StandardCharsets.UTF_8).length, RecordCodec.utf8Length(s), () -> "string " + s);
            Tuple back = codec.decode(encoded, encoded.length);
            assertArrayEquals(encoded, codec.encode(back), "re-encoding the decoded record");
        }
    }
}
