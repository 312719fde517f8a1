package dev.transforms.benchmarks;

import com.sun.net.httpserver.HttpServer;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.benchmarks.RuntimeOverheadBenchmark.NoopEngine;
import dev.transforms.benchmarks.RuntimeOverheadBenchmark.NoopInput;
import dev.transforms.benchmarks.RuntimeOverheadBenchmark.NoopOutput;
import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.build.BuildOptions;
import dev.transforms.runtime.internal.build.BuildRunner;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.internal.validate.ReflectiveModels;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;

/**
 * What OpenLineage events cost a build: the same builds with lineage off and with the http transport to
 * a receiver on 127.0.0.1 (the JDK's HTTP server, answering 200), side by side. The transforms' bodies
 * are empty (the no-op engine of {@link RuntimeOverheadBenchmark}), so the difference is lineage's own:
 * building the events, queueing them, and the end of the build waiting until every one was sent.
 *
 * <p>Run: {@code java -cp "$CP" dev.transforms.benchmarks.LineageOverheadBenchmark 200} (see
 * docs/benchmarks.md).
 */
public final class LineageOverheadBenchmark {

  private LineageOverheadBenchmark() {}

  /** One empty transform. */
  public static class One {
    @Transform(name = "one")
    public void one(@TableInput("/bench/in") NoopInput in, @TableOutput("/bench/out") NoopOutput out) {}
  }

  /** Eight empty transforms in a chain. */
  public static class Chain {
    @Transform(name = "c1")
    public void c1(@TableInput("/bench/in") NoopInput in, @TableOutput("/bench/c1") NoopOutput out) {}

    @Transform(name = "c2")
    public void c2(@TableInput("/bench/c1") NoopInput in, @TableOutput("/bench/c2") NoopOutput out) {}

    @Transform(name = "c3")
    public void c3(@TableInput("/bench/c2") NoopInput in, @TableOutput("/bench/c3") NoopOutput out) {}

    @Transform(name = "c4")
    public void c4(@TableInput("/bench/c3") NoopInput in, @TableOutput("/bench/c4") NoopOutput out) {}

    @Transform(name = "c5")
    public void c5(@TableInput("/bench/c4") NoopInput in, @TableOutput("/bench/c5") NoopOutput out) {}

    @Transform(name = "c6")
    public void c6(@TableInput("/bench/c5") NoopInput in, @TableOutput("/bench/c6") NoopOutput out) {}

    @Transform(name = "c7")
    public void c7(@TableInput("/bench/c6") NoopInput in, @TableOutput("/bench/c7") NoopOutput out) {}

    @Transform(name = "c8")
    public void c8(@TableInput("/bench/c7") NoopInput in, @TableOutput("/bench/c8") NoopOutput out) {}
  }

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    AtomicLong received = new AtomicLong();
    HttpServer receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    receiver.setExecutor(Executors.newFixedThreadPool(2, r -> {
      Thread thread = new Thread(r, "lineage-receiver");
      thread.setDaemon(true);
      return thread;
    }));
    receiver.createContext("/api/v1/lineage", exchange -> {
      try (InputStream in = exchange.getRequestBody()) {
        in.readAllBytes();
      }
      received.incrementAndGet();
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    receiver.start();
    try {
      Path off = Files.createTempDirectory("transforms-lineage-off");
      Path on = Files.createTempDirectory("transforms-lineage-on");
      Harness.deleteOnExit(off);
      Harness.deleteOnExit(on);
      Files.writeString(on.resolve(TransformsConfig.FILE_NAME), String.join("\n",
          "warehouse=warehouse",
          "openlineage.enabled=true",
          "openlineage.transport.type=http",
          "openlineage.transport.url=http://127.0.0.1:" + receiver.getAddress().getPort(), ""));
      Path noop = Files.createTempDirectory("transforms-lineage-noop");
      Harness.deleteOnExit(noop);
      Files.writeString(noop.resolve(TransformsConfig.FILE_NAME), String.join("\n",
          "warehouse=warehouse", "openlineage.enabled=true", "openlineage.transport.type=noop", ""));
      TransformsConfig eventsOnly = TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of(), noop);
      TransformsConfig withoutLineage = TransformsConfig.embedded(off.resolve("warehouse"));
      TransformsConfig withLineage = TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of(), on);

      Harness.header();
      double[][] one;
      double[][] chain;
      double[][] built;
      // Both runners stay open and take turns, run by run, so that JIT warm-up and load fall on both alike.
      try (BuildRunner plain = new BuildRunner(withoutLineage, null, List.of(new NoopEngine()));
          BuildRunner lineage = new BuildRunner(withLineage, null, List.of(new NoopEngine()));
          BuildRunner silent = new BuildRunner(eventsOnly, null, List.of(new NoopEngine()))) {
        seed(plain.catalogs().catalog("local"));
        seed(lineage.catalogs().catalog("local"));
        seed(silent.catalogs().catalog("local"));
        built = alternate(plain, silent, BuildPlan.of(ReflectiveModels.transformsOf(One.class)), runs);
        one = alternate(plain, lineage, BuildPlan.of(ReflectiveModels.transformsOf(One.class)), runs);
        chain = alternate(plain, lineage, BuildPlan.of(ReflectiveModels.transformsOf(Chain.class)),
            Math.max(10, runs / 4));
      }
      Harness.row("1 transform, lineage off", one[0]);
      Harness.row("1 transform, lineage on (http, 127.0.0.1)", one[1]);
      Harness.row("1 transform, lineage off (again)", built[0]);
      Harness.row("1 transform, lineage on, noop transport", built[1]);
      Harness.row("8 transforms in a chain, lineage off", chain[0]);
      Harness.row("8 transforms in a chain, lineage on (http, 127.0.0.1)", chain[1]);
      double perOne = Harness.median(one[1]) - Harness.median(one[0]);
      double perChained = (Harness.median(chain[1]) - Harness.median(chain[0])) / 8;
      System.out.printf("| **lineage per transform, 1-transform build (difference of medians)** | **%.2f** | | at most 5 |%n",
          perOne);
      System.out.printf("| **lineage per transform, 8-transform build (difference of medians / 8)** | **%.2f** | | at most 5 |%n",
          perChained);
      System.out.printf("| lineage per transform without sending (noop transport) | %.2f | | |%n",
          Harness.median(built[1]) - Harness.median(built[0]));
      System.out.println("events received: " + received.get());
    } finally {
      receiver.stop(0);
    }
  }

  /** Milliseconds of each run of the plan without and with lineage, taken in turns; each array sorted. */
  private static double[][] alternate(BuildRunner plain, BuildRunner lineage, BuildPlan plan, int runs) {
    for (int i = 0; i < Math.max(10, runs / 10); i++) {
      build(plain, plan);
      build(lineage, plan);
    }
    double[] off = new double[runs];
    double[] on = new double[runs];
    for (int i = 0; i < runs; i++) {
      off[i] = Harness.time(() -> build(plain, plan));
      on[i] = Harness.time(() -> build(lineage, plan));
    }
    java.util.Arrays.sort(off);
    java.util.Arrays.sort(on);
    return new double[][] {off, on};
  }

  private static void build(BuildRunner runner, BuildPlan plan) {
    BuildReport report = runner.run(plan, BuildListener.NONE, BuildOptions.forcing(plan));
    if (!report.succeeded()) {
      throw new IllegalStateException(report.format());
    }
  }

  private static void seed(Catalog catalog) {
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("bench"));
    Schema schema = new Schema(Types.NestedField.optional(1, "id", Types.LongType.get()));
    for (String table : List.of("in", "out", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8")) {
      catalog.createTable(TableIdentifier.of("bench", table), schema);
    }
  }
}
