package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's example, extracted from README.md ("Using it", the first java block), compiled as
 * written (imports included) and run twice on one directory, so that the README stays true. The
 * only change is the data directory: {@code Path.of("data")} becomes a temporary directory.
 */
class ReadmeExampleTest {

    /** README.md at the repository root; Surefire runs with the module directory as working directory. */
    private static final Path README = Path.of("..", "README.md");
    private static final String DATA_DIR = "Path.of(\"data\")";

    @TempDir
    Path tmp;

    static String exampleSource() throws IOException {
        String md = Files.readString(README, StandardCharsets.UTF_8);
        int section = md.indexOf("\n## Using it\n");
        assertTrue(section >= 0, "README.md has a 'Using it' section");
        int start = md.indexOf("```java\n", section);
        int end = md.indexOf("\n```", start + 1);
        assertTrue(start >= 0 && end > start, "the section has a java block");
        return md.substring(start + "```java\n".length(), end + 1);
    }

    @Test
    void theReadmeExampleCompilesAsWrittenAndRunsTwiceOnOneDirectory() throws Exception {
        String source = exampleSource();
        assertEquals(1, source.split(java.util.regex.Pattern.quote(DATA_DIR), -1).length - 1, "one data directory to replace");
        Path data = tmp.resolve("data");
        source = source.replace(DATA_DIR, "Path.of(\"" + data.toString().replace("\\", "\\\\") + "\")");

        Path src = tmp.resolve("src/Example.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, source, StandardCharsets.UTF_8);
        Path classes = Files.createDirectories(tmp.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "tests run on a JDK");
        StringWriter diagnostics = new StringWriter();
        boolean ok = javac.getTask(diagnostics, null, null,
                List.of("-classpath", classPath(), "-d", classes.toString(), "-proc:none"), null,
                javac.getStandardFileManager(null, null, StandardCharsets.UTF_8).getJavaFileObjects(src.toFile())).call();
        assertTrue(ok, "the README example compiles as written:\n" + diagnostics);

        String first = run(classes);
        String second = run(classes); // the dataset exists now: createDatasetIfAbsent returns it
        assertEquals(Tuple.of(1, 2, 3, "OUGHTABLE") + System.lineSeparator(), first);
        assertEquals(first, second);
    }

    /** Runs Example.main and returns what it printed. */
    private static String run(Path classes) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, ReadmeExampleTest.class.getClassLoader())) {
            Method main = loader.loadClass("Example").getMethod("main", String[].class);
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            main.invoke(null, (Object) new String[0]);
        } finally {
            System.setOut(original);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** This JVM's class path, with the entries of a manifest-only jar (how Surefire passes it) expanded. */
    private static String classPath() throws IOException {
        List<String> entries = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            entries.add(e);
            if (!e.endsWith(".jar") || !Files.isRegularFile(Path.of(e))) {
                continue;
            }
            try (JarFile jar = new JarFile(e)) {
                Manifest m = jar.getManifest();
                String extra = m == null ? null : m.getMainAttributes().getValue("Class-Path");
                if (extra == null) {
                    continue;
                }
                URI base = Path.of(e).toAbsolutePath().getParent().toUri();
                for (String u : extra.trim().split("\\s+")) {
                    entries.add(Path.of(base.resolve(u)).toString());
                }
            }
        }
        return String.join(File.pathSeparator, entries);
    }
}
