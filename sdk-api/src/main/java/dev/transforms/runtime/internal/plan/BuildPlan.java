package dev.transforms.runtime.internal.plan;

import dev.transforms.api.PlanException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.spi.TransformSpec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Transforms in the order they must run: a transform runs after the producers of its inputs.
 *
 * <p>Outputs name their producers, so the transforms form a graph over dataset paths. Planning
 * rejects two transforms with one name, an output produced by two transforms, and cycles, naming every
 * transform involved. Among transforms that do not depend on each other, the order is by name, so a
 * plan is the same on every run.
 */
public final class BuildPlan {

  private final List<TransformSpec> order;
  private final Map<String, Set<String>> upstream;

  private BuildPlan(List<TransformSpec> order, Map<String, Set<String>> upstream) {
    this.order = List.copyOf(order);
    this.upstream = upstream;
  }

  /**
   * Plans a build of every given transform.
   *
   * @param transforms the transforms of the pipeline
   * @return the plan
   * @throws PlanException on a duplicate name, an output produced twice, or a cycle
   */
  public static BuildPlan of(Collection<TransformSpec> transforms) {
    Map<String, TransformSpec> byName = new TreeMap<>();
    for (TransformSpec spec : transforms) {
      TransformSpec other = byName.putIfAbsent(spec.name(), spec);
      if (other != null && other != spec) {
        throw new PlanException("Two transforms are named " + spec.name() + ": "
            + describe(other) + " and " + describe(spec) + "; give one a different @Transform(name)");
      }
    }
    Map<DatasetPath, TransformSpec> producers = new LinkedHashMap<>();
    for (TransformSpec spec : byName.values()) {
      for (DatasetPath output : spec.outputPaths()) {
        TransformSpec other = producers.putIfAbsent(output, spec);
        if (other != null) {
          throw new PlanException("Output " + output + " is produced by two transforms, " + other.name() + " and "
              + spec.name() + "; a dataset has one producer");
        }
      }
    }
    Map<String, Set<String>> upstream = new TreeMap<>();
    for (TransformSpec spec : byName.values()) {
      Set<String> direct = new TreeSet<>();
      for (DatasetPath input : spec.inputPaths()) {
        Optional.ofNullable(producers.get(input)).ifPresent(p -> direct.add(p.name()));
      }
      upstream.put(spec.name(), direct);
    }

    // Kahn's algorithm, always taking the smallest ready name so the order is stable.
    Map<String, Integer> waiting = new TreeMap<>();
    Map<String, Set<String>> downstream = new TreeMap<>();
    upstream.forEach((name, deps) -> {
      waiting.put(name, deps.size());
      deps.forEach(d -> downstream.computeIfAbsent(d, k -> new TreeSet<>()).add(name));
    });
    TreeSet<String> ready = new TreeSet<>();
    waiting.forEach((name, count) -> {
      if (count == 0) {
        ready.add(name);
      }
    });
    List<TransformSpec> order = new ArrayList<>();
    while (!ready.isEmpty()) {
      String next = ready.pollFirst();
      order.add(byName.get(next));
      for (String after : downstream.getOrDefault(next, Set.of())) {
        if (waiting.merge(after, -1, Integer::sum) == 0) {
          ready.add(after);
        }
      }
    }
    if (order.size() < byName.size()) {
      List<String> cycle = findCycle(upstream, waiting);
      throw new PlanException("Transforms form a cycle: " + String.join(" -> ", cycle)
          + "; a transform cannot read, even indirectly, what it writes");
    }
    return new BuildPlan(order, upstream);
  }

  /**
   * Plans a build of some transforms and everything upstream of them, among all the transforms found.
   * Only those transforms are checked: two unrelated transforms elsewhere on the classpath that share a
   * name, or write one dataset, do not stop the plan.
   *
   * @param transforms every transform found
   * @param names the transforms to build, by name or by full name ({@code com.example.CleanOrders.clean},
   *     which picks one of two transforms that share a name); none to build everything
   * @return the plan
   * @throws PlanException if a name matches no transform or two, or if the selected transforms or their
   *     upstream have a duplicate name, an input with two producers, or a cycle
   */
  public static BuildPlan of(Collection<TransformSpec> transforms, Collection<String> names) {
    if (names.isEmpty()) {
      return of(transforms);
    }
    Map<DatasetPath, List<TransformSpec>> producers = new LinkedHashMap<>();
    for (TransformSpec spec : transforms) {
      for (DatasetPath output : spec.outputPaths()) {
        producers.computeIfAbsent(output, k -> new ArrayList<>()).add(spec);
      }
    }
    Map<String, TransformSpec> chosen = new LinkedHashMap<>();
    Deque<TransformSpec> queue = new ArrayDeque<>();
    for (String name : names) {
      queue.add(named(transforms, name));
    }
    while (!queue.isEmpty()) {
      TransformSpec spec = queue.poll();
      if (chosen.containsKey(describe(spec))) {
        continue;
      }
      chosen.put(describe(spec), spec);
      for (DatasetPath input : spec.inputPaths()) {
        List<TransformSpec> found = producers.getOrDefault(input, List.of());
        if (found.size() > 1) {
          throw new PlanException("Input " + input + " of " + spec.name() + " is produced by two transforms, "
              + describe(found.get(0)) + " and " + describe(found.get(1)) + "; a dataset has one producer");
        }
        queue.addAll(found);
      }
    }
    return of(chosen.values()).select(names.stream().map(n -> named(transforms, n).name()).toList());
  }

  /**
   * The names of the transforms some names given by a user pick, as {@link #of(Collection, Collection)}
   * reads them.
   *
   * @param transforms every transform found
   * @param names names or full names
   * @return the transforms' names
   * @throws PlanException if a name matches no transform or two
   */
  public static Set<String> resolve(Collection<TransformSpec> transforms, Collection<String> names) {
    Set<String> resolved = new java.util.LinkedHashSet<>();
    names.forEach(name -> resolved.add(named(transforms, name).name()));
    return resolved;
  }

  private static TransformSpec named(Collection<TransformSpec> transforms, String name) {
    refuseEmpty(name, transforms.stream().map(TransformSpec::name).toList());
    List<TransformSpec> found = transforms.stream().filter(t -> t.name().equals(name)).distinct().toList();
    if (found.isEmpty()) {
      found = transforms.stream().filter(t -> describe(t).equals(name)).distinct().toList();
    }
    if (found.isEmpty()) {
      throw new PlanException(NameChoices.noSuchTransform(name, transforms.stream().map(TransformSpec::name).toList()));
    }
    if (found.size() > 1) {
      throw new PlanException("Two transforms are named " + name + ": " + describe(found.get(0)) + " and "
          + describe(found.get(1)) + "; name one by its full name (" + describe(found.get(0)) + "), or give one a "
          + "different @Transform(name)");
    }
    return found.get(0);
  }

  /**
   * Refuses an empty (or blank) name, as {@code transforms build ''} gives: it would be reported as "No
   * transform is named ; transforms: ...", which reads as if the message lost a word.
   */
  private static void refuseEmpty(String name, Collection<String> names) {
    if (!name.isBlank()) {
      return;
    }
    String example = names.stream().sorted().findFirst().map(n -> "name a transform, such as " + n + ", or none "
        + "to take them all").orElse("name a transform (none is found), or none");
    throw new PlanException("An empty transform name was given ('" + name + "'); " + example);
  }

  private static List<String> findCycle(Map<String, Set<String>> upstream, Map<String, Integer> waiting) {
    String start = waiting.entrySet().stream().filter(e -> e.getValue() > 0).map(Map.Entry::getKey)
        .min(Comparator.naturalOrder()).orElseThrow();
    // Walk upstream edges among unresolved transforms until a name repeats.
    List<String> path = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    String current = start;
    while (seen.add(current)) {
      path.add(current);
      current = upstream.get(current).stream().filter(u -> waiting.get(u) > 0).findFirst().orElseThrow();
    }
    List<String> cycle = new ArrayList<>(path.subList(path.indexOf(current), path.size()));
    cycle.add(current);
    java.util.Collections.reverse(cycle);
    return cycle;
  }

  private static String describe(TransformSpec spec) {
    return spec.method().getDeclaringClass().getName() + "." + spec.method().getName();
  }

  /**
   * The plan restricted to some transforms and everything upstream of them.
   *
   * @param names the transforms to build
   * @return a plan of those transforms and their upstream, in dependency order
   * @throws PlanException if a name is not a transform of this plan
   */
  public BuildPlan select(Collection<String> names) {
    Set<String> wanted = new TreeSet<>();
    Deque<String> queue = new ArrayDeque<>();
    for (String name : names) {
      refuseEmpty(name, upstream.keySet());
      if (!upstream.containsKey(name)) {
        throw new PlanException(NameChoices.noSuchTransform(name, upstream.keySet()));
      }
      queue.add(name);
    }
    while (!queue.isEmpty()) {
      String name = queue.poll();
      if (wanted.add(name)) {
        queue.addAll(upstream.get(name));
      }
    }
    return new BuildPlan(order.stream().filter(t -> wanted.contains(t.name())).toList(), upstream);
  }

  /**
   * The transforms in the order they run.
   *
   * @return the ordered transforms
   */
  public List<TransformSpec> transforms() {
    return order;
  }

  /**
   * The transforms that produce a transform's inputs.
   *
   * @param name a transform name
   * @return the names of its direct upstream transforms
   */
  public Set<String> upstreamOf(String name) {
    return upstream.getOrDefault(name, Set.of());
  }

  /**
   * The transforms of this plan that read a transform's outputs.
   *
   * @param name a transform name
   * @return the names of its direct downstream transforms, in plan order
   */
  public List<String> downstreamOf(String name) {
    return order.stream().map(TransformSpec::name).filter(n -> upstreamOf(n).contains(name)).toList();
  }

  /**
   * The transforms by level: those of one level depend on none of the same or a later level, so they
   * can run at the same time once the levels before have published. Level 1 reads no output of the
   * plan; a transform's level is one more than its highest upstream's.
   *
   * @return the levels, from the first, each in plan order
   */
  public List<List<String>> levels() {
    Map<String, Integer> level = new LinkedHashMap<>();
    List<List<String>> levels = new ArrayList<>();
    for (TransformSpec spec : order) {
      int mine = 1 + upstreamOf(spec.name()).stream().mapToInt(u -> level.getOrDefault(u, 0)).max().orElse(0);
      level.put(spec.name(), mine);
      while (levels.size() < mine) {
        levels.add(new ArrayList<>());
      }
      levels.get(mine - 1).add(spec.name());
    }
    return levels.stream().map(List::copyOf).toList();
  }

  /**
   * The longest chain of transforms that depend on each other, counted in transforms: no build of this
   * plan, however many run at once, takes fewer steps. Of chains of equal length, the first in plan order.
   *
   * @return the chain, from its first transform to its last; empty for an empty plan
   */
  public List<String> criticalPath() {
    Map<String, Integer> depth = new LinkedHashMap<>();
    Map<String, String> via = new LinkedHashMap<>();
    String end = null;
    for (TransformSpec spec : order) {
      String best = null;
      for (String u : upstreamOf(spec.name())) {
        if (depth.containsKey(u) && (best == null || depth.get(u) > depth.get(best))) {
          best = u;
        }
      }
      depth.put(spec.name(), best == null ? 1 : depth.get(best) + 1);
      if (best != null) {
        via.put(spec.name(), best);
      }
      if (end == null || depth.get(spec.name()) > depth.get(end)) {
        end = spec.name();
      }
    }
    List<String> path = new ArrayList<>();
    for (String at = end; at != null; at = via.get(at)) {
      path.add(0, at);
    }
    return List.copyOf(path);
  }
}
