package dev.breakwater.bench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official YCSB client's classes ({@link YcsbPhase}) run workload A against each binding with a
 * few hundred records and operations: every operation returns OK and the counts add up.
 */
class OfficialClientSmokeTest {

    @TempDir
    Path tmp;

    private static Properties props(String db) throws Exception {
        Properties p = YcsbPhase.workload("workloada");
        p.setProperty("db", db);
        p.setProperty("recordcount", "300");
        p.setProperty("operationcount", "500");
        p.setProperty("threadcount", "2");
        return p;
    }

    private static void loadAndRunA(Properties p) throws Exception {
        YcsbPhase.Result load = YcsbPhase.run(p, false, 0, null);
        assertEquals(300, load.operations());
        assertEquals(300, load.returns("INSERT", "OK"));
        assertTrue(load.nonOkReturns().isEmpty(), load.nonOkReturns().toString());

        YcsbPhase.Result run = YcsbPhase.run(p, true, 0, null);
        assertEquals(500, run.operations());
        assertEquals(500, run.returns("READ", "OK") + run.returns("UPDATE", "OK"));
        assertTrue(run.returns("READ", "OK") > 0 && run.returns("UPDATE", "OK") > 0);
        assertTrue(run.nonOkReturns().isEmpty(), run.nonOkReturns().toString());
    }

    @Test
    void breakwaterRunsWorkloadA() throws Exception {
        Properties p = props(BreakwaterDB.class.getName());
        p.setProperty("breakwater.dir", tmp.resolve("bw").toString());
        p.setProperty("breakwater.memory", "32m");
        p.setProperty("breakwater.writememory", "8m");
        p.setProperty("breakwater.directio", "false");
        loadAndRunA(p);
        assertNotNull(BreakwaterDB.lastPhase());
        assertTrue(BreakwaterDB.lastPhase().logBytes() > 0);
    }

    @Test
    void rocksDbRunsWorkloadA() throws Exception {
        Properties p = props(RocksDbDB.class.getName());
        p.setProperty("rocksdb.dir", tmp.resolve("rocks").toString());
        p.setProperty("rocksdb.memory", "32m");
        p.setProperty("rocksdb.writememory", "8m");
        p.setProperty("rocksdb.directio", "false");
        loadAndRunA(p);
        assertNotNull(RocksDbDB.lastPhase());
        assertTrue(RocksDbDB.lastPhase().walBytes() > 0);
    }

    @Test
    void breakwaterScansWorkloadE() throws Exception {
        Properties p = YcsbPhase.workload("workloade");
        p.setProperty("db", BreakwaterDB.class.getName());
        p.setProperty("recordcount", "300");
        p.setProperty("operationcount", "200");
        p.setProperty("threadcount", "1");
        p.setProperty("breakwater.dir", tmp.resolve("bwe").toString());
        p.setProperty("breakwater.memory", "32m");
        p.setProperty("breakwater.writememory", "8m");
        p.setProperty("breakwater.directio", "false");
        YcsbPhase.run(p, false, 0, null);
        YcsbPhase.Result run = YcsbPhase.run(p, true, 0, null);
        assertEquals(200, run.returns("SCAN", "OK") + run.returns("INSERT", "OK"));
        assertTrue(run.nonOkReturns().isEmpty(), run.nonOkReturns().toString());
    }
}
