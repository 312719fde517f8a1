package dev.transforms.runtime.internal.incremental;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A fingerprint of a transform's code: the class files it is built from, so that a build can tell
 * whether the code changed since the build that published its outputs.
 *
 * <p>The code of a transform is its class and every class it refers to that was compiled with it:
 * classes found in the same folder or jar of the class path (its helpers, nested classes and lambdas'
 * host classes), followed from class file to class file through their constant pools. Classes of other
 * jars, and of the SDK's and the usual libraries' packages even where an application jar bundles them
 * (the SDK, Spark, Iceberg, Arrow...), are not part of it: upgrading a library does not make a transform
 * run again, and neither does a change to a resource file it reads. The settings that shape
 * what a transform writes are added to the fingerprint by the caller.
 *
 * <p>Class files are compared, not sources: recompiling the same source with the same compiler gives
 * the same fingerprint; a change that moves lines (a comment) gives another, which only makes a
 * transform run once more.
 */
public final class CodeFingerprint {

  private static final int MAX_CLASSES = 2_000;

  /**
   * Packages never part of a transform's code, even when an application jar bundles them with it: the
   * SDK, the JDK and the libraries a pipeline jar carries.
   */
  private static final java.util.List<String> LIBRARIES = java.util.List.of("java/", "javax/", "jdk/", "sun/",
      "scala/", "org/apache/", "org/slf4j/", "com/google/", "com/fasterxml/", "io/netty/", "org/duckdb/",
      "com/github/luben/", "picocli/", "dev/transforms/api/", "dev/transforms/runtime/", "dev/transforms/spark/",
      "dev/transforms/singlenode/", "dev/transforms/testing/", "dev/transforms/graph/", "dev/transforms/cli/",
      "dev/transforms/shaded/");

  /**
   * Engine settings that say where and how fast a transform runs, never what it writes: the cluster it
   * runs on, its resources, its user interface, logs and listeners. Changing them leaves a transform up to
   * date. Each entry is a key or, ending in a dot, a key prefix.
   */
  private static final java.util.List<String> RUN_ONLY_SETTINGS = java.util.List.of("spark.master",
      "spark.app.name", "spark.submit.", "spark.ui.", "spark.eventLog.", "spark.log.", "spark.history.",
      "spark.metrics.", "spark.extraListeners", "spark.driver.host", "spark.driver.port", "spark.driver.bindAddress",
      "spark.driver.memory", "spark.driver.cores", "spark.driver.maxResultSize", "spark.executor.memory",
      "spark.executor.cores", "spark.executor.instances", "spark.cores.max", "spark.dynamicAllocation.",
      "spark.local.dir", "spark.network.", "spark.rpc.", "spark.blockManager.", "spark.openlineage.",
      "duckdb.threads", "duckdb.memory-limit");

  private CodeFingerprint() {}

  /**
   * Whether an engine setting can change what a transform writes, and so belongs to its fingerprint.
   *
   * @param key the setting's key ({@code spark.*} or {@code duckdb.*})
   * @return false for the settings of where and how fast it runs ({@code spark.master}, memory, UI, logs)
   */
  public static boolean shapesResults(String key) {
    for (String runOnly : RUN_ONLY_SETTINGS) {
      if (runOnly.endsWith(".") ? key.startsWith(runOnly) : key.equals(runOnly)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The fingerprint of a transform: its class and the classes compiled with it, with the settings of its
   * engine that shape what it writes ({@code spark.*} for Spark, {@code duckdb.*} on a single node; not
   * those of where and how fast it runs: {@link #shapesResults}).
   *
   * @param spec the transform
   * @param config the configuration
   * @return a short hex digest; empty if the class file cannot be read
   */
  public static String of(dev.transforms.runtime.spi.TransformSpec spec,
      dev.transforms.runtime.TransformsConfig config) {
    Map<String, String> settings = new TreeMap<>();
    boolean spark = spec.engine().equals("spark");
    (spark ? config.sparkProperties() : config.duckdbProperties()).forEach((key, value) -> {
      if (shapesResults(key)) {
        settings.put(key, value);
      }
    });
    settings.put("engine", spec.engine());
    return of(spec.method().getDeclaringClass(), settings);
  }

  /**
   * The fingerprint of a class and the classes compiled with it, with some settings.
   *
   * @param type the transform's class
   * @param settings further text to fold in (the engine settings that shape the output), possibly empty
   * @return a short hex digest; empty if the class file cannot be read (a class defined at run time)
   */
  public static String of(Class<?> type, Map<String, String> settings) {
    ClassLoader loader = type.getClassLoader() != null ? type.getClassLoader() : ClassLoader.getSystemClassLoader();
    String root = resourceName(type.getName().replace('.', '/'));
    URL rootUrl = loader.getResource(root);
    if (rootUrl == null) {
      return "";
    }
    String container = rootUrl.toString().substring(0, rootUrl.toString().length() - root.length());
    Map<String, byte[]> classes = new TreeMap<>();
    Deque<String> queue = new ArrayDeque<>();
    queue.add(type.getName().replace('.', '/'));
    while (!queue.isEmpty() && classes.size() < MAX_CLASSES) {
      String name = queue.poll();
      if (classes.containsKey(name) || (!classes.isEmpty() && LIBRARIES.stream().anyMatch(name::startsWith))) {
        continue;
      }
      URL url = loader.getResource(resourceName(name));
      if (url == null || !url.toString().startsWith(container)) {
        continue;
      }
      byte[] bytes = read(url);
      if (bytes == null) {
        return "";
      }
      classes.put(name, bytes);
      queue.addAll(referencedClasses(bytes));
    }
    MessageDigest digest = sha256();
    // The transform's own class first: two transforms compiled together share their classes, not their root.
    digest.update(type.getName().getBytes(StandardCharsets.UTF_8));
    classes.forEach((name, bytes) -> {
      digest.update(name.getBytes(StandardCharsets.UTF_8));
      digest.update(bytes);
    });
    new TreeMap<>(settings).forEach((key, value) -> {
      digest.update(key.getBytes(StandardCharsets.UTF_8));
      digest.update((byte) '=');
      digest.update(value.getBytes(StandardCharsets.UTF_8));
    });
    return HexFormat.of().formatHex(digest.digest(), 0, 12);
  }

  private static String resourceName(String internalName) {
    return internalName + ".class";
  }

  private static byte[] read(URL url) {
    try (InputStream in = url.openStream()) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      return out.toByteArray();
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * The classes a class file names in its constant pool (internal names, arrays unwrapped), as the JVM
   * specification lays the pool out (chapter 4.4).
   */
  static Set<String> referencedClasses(byte[] classFile) {
    Set<String> names = new LinkedHashSet<>();
    try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(classFile))) {
      if (in.readInt() != 0xCAFEBABE) {
        return names;
      }
      in.readUnsignedShort();
      in.readUnsignedShort();
      int count = in.readUnsignedShort();
      String[] utf8 = new String[count];
      int[] classIndex = new int[count];
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1 -> utf8[i] = in.readUTF();
          case 7 -> classIndex[i] = in.readUnsignedShort();
          case 8, 16, 19, 20 -> in.readUnsignedShort();
          case 15 -> {
            in.readUnsignedByte();
            in.readUnsignedShort();
          }
          case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();
          case 5, 6 -> {
            in.readLong();
            i++;
          }
          default -> {
            return names;
          }
        }
      }
      for (int i = 1; i < count; i++) {
        if (classIndex[i] > 0 && utf8[classIndex[i]] != null) {
          String name = utf8[classIndex[i]];
          int start = name.lastIndexOf('[') + 1;
          if (start > 0 && name.length() > start && name.charAt(start) == 'L') {
            name = name.substring(start + 1, name.length() - 1);
          } else if (start > 0) {
            continue;
          }
          names.add(name);
        }
      }
    } catch (IOException e) {
      // A class file this reader does not know: its own bytes still count.
    }
    return names;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
