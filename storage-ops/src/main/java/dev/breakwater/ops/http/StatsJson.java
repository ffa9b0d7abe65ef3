package dev.breakwater.ops.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.breakwater.buffercache.BufferCacheSnapshot;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatisticsSnapshot;
import java.io.IOException;

/**
 * The JSON shapes of the endpoint. Records ({@code EngineStatistics}, {@code EngineLayout},
 * {@code TunerView} and their parts) are written by Jackson field by field; the two statistics that
 * keep counters in arrays indexed by {@link IoPurpose} are written as objects keyed by purpose name
 * ({@code "io": {"QUERY": {"pagesRead": ...}, ...}}) so that a reader needs no ordinal table.
 *
 * <p>Immutable after class initialization; thread-safe (Jackson's mapper is, once configured).
 */
public final class StatsJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .registerModule(new SimpleModule("breakwater-stats")
                    .addSerializer(IoStatisticsSnapshot.class, new IoSerializer())
                    .addSerializer(BufferCacheSnapshot.class, new BufferCacheSerializer()));

    private StatsJson() {
    }

    /** {@code value} as UTF-8 JSON bytes. */
    public static byte[] bytes(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** The mapper, for tests and tools that read the endpoint's JSON back. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    private static final class IoSerializer extends StdSerializer<IoStatisticsSnapshot> {
        private static final long serialVersionUID = 1L;

        IoSerializer() {
            super(IoStatisticsSnapshot.class);
        }

        @Override
        public void serialize(IoStatisticsSnapshot io, JsonGenerator g, SerializerProvider p) throws IOException {
            g.writeStartObject();
            for (IoPurpose purpose : IoPurpose.values()) {
                g.writeObjectFieldStart(purpose.name());
                g.writeNumberField("pagesRead", io.pagesRead(purpose));
                g.writeNumberField("bytesRead", io.bytesRead(purpose));
                g.writeNumberField("pagesWritten", io.pagesWritten(purpose));
                g.writeNumberField("bytesWritten", io.bytesWritten(purpose));
                g.writeEndObject();
            }
            g.writeEndObject();
        }
    }

    private static final class BufferCacheSerializer extends StdSerializer<BufferCacheSnapshot> {
        private static final long serialVersionUID = 1L;

        BufferCacheSerializer() {
            super(BufferCacheSnapshot.class);
        }

        @Override
        public void serialize(BufferCacheSnapshot c, JsonGenerator g, SerializerProvider p) throws IOException {
            g.writeStartObject();
            g.writeNumberField("capacityBytes", c.capacityBytes());
            g.writeNumberField("frames", c.frames());
            g.writeNumberField("pinnedFrames", c.pinnedFrames());
            g.writeNumberField("simulatedCapacityPages", c.simulatedCapacityPages());
            g.writeNumberField("evictions", c.evictions());
            g.writeNumberField("pinTimeouts", c.pinTimeouts());
            g.writeObjectFieldStart("byPurpose");
            for (IoPurpose purpose : IoPurpose.values()) {
                g.writeObjectFieldStart(purpose.name());
                g.writeNumberField("hits", c.hits(purpose));
                g.writeNumberField("misses", c.misses(purpose));
                g.writeNumberField("saved", c.saved(purpose));
                g.writeEndObject();
            }
            g.writeEndObject();
            g.writeEndObject();
        }
    }
}
