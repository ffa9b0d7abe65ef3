package dev.breakwater.bench.advisor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.breakwater.tuner.advisor.Design;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The measured designs of earlier runs ({@code advisor-designs.json}), so a run can stop and a later one continue. */
final class MeasuredCache {

    private MeasuredCache() {
    }

    static void load(Path file, Map<Design, KindCosts> into) throws IOException {
        if (!Files.exists(file)) {
            return;
        }
        for (JsonNode n : new ObjectMapper().readTree(file.toFile())) {
            Design d = Design.uniform(n.get("writeMemoryBytes").asLong(), n.get("bloomBitsPerKey").asDouble(), n.get("sizeRatio").asInt(),
                    n.get("runsPerLevel").asInt());
            into.put(d, new KindCosts(d, doubles(n.get("measured")), doubles(n.get("predicted")), n.get("levels").asInt(),
                    n.get("diskLevels").asInt(), n.get("bytesPerEntry").asDouble(), doubles(n.get("timing")), breakdown(n.get("breakdown"))));
        }
    }

    static void save(Path file, Map<Design, KindCosts> all) throws IOException {
        List<Map<String, Object>> out = new ArrayList<>();
        for (KindCosts k : all.values()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("sizeRatio", k.design().sizeRatio());
            m.put("runsPerLevel", k.design().runs(1));
            m.put("bloomBitsPerKey", k.design().bloomBitsPerKey());
            m.put("writeMemoryBytes", k.design().writeMemoryBytes());
            m.put("measured", k.measured());
            m.put("predicted", k.predicted());
            m.put("levels", k.levels());
            m.put("diskLevels", k.diskLevels());
            m.put("bytesPerEntry", k.bytesPerEntry());
            m.put("timing", k.opsPerSecond());
            m.put("breakdown", k.breakdown());
            out.add(m);
        }
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), out);
    }

    private static Map<String, Map<String, Double>> breakdown(JsonNode n) {
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        if (n == null) {
            return out;
        }
        n.fields().forEachRemaining(kind -> {
            Map<String, Double> v = new LinkedHashMap<>();
            kind.getValue().fields().forEachRemaining(f -> v.put(f.getKey(), f.getValue().asDouble()));
            out.put(kind.getKey(), v);
        });
        return out;
    }

    private static double[] doubles(JsonNode a) {
        double[] d = new double[a.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = a.get(i).asDouble();
        }
        return d;
    }
}
