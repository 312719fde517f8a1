package dev.transforms.runtime.internal.publish;

import dev.transforms.runtime.internal.config.BranchNames;
import dev.transforms.runtime.spi.CommitRetry;
import dev.transforms.runtime.spi.CrashPoints;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManageSnapshots;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;

/**
 * The marks a build leaves on an output table while it stages it, and only then:
 * <ul>
 *   <li>the staging branch {@code transforms_BUILD};
 *   <li>the lease {@code transforms.lease.BUILD} (a table property, see {@link BuildLease}), committed
 *       together with the branch and removed together with it;
 *   <li>the shape mark {@code transforms.shape.BUILD}, when the build changed the table's schema, spec,
 *       sort order or properties ({@link StagedShape}).
 * </ul>
 * A new output the build creates carries none: it is not in the catalog before it is published, and
 * its files beside a lease file are its marks ({@link StagedCreateFiles}).
 * A build that dies leaves its marks behind; the next build that touches the output finds them, judges
 * the lease, and removes what a dead build left ({@link #remove}, as a discard removes its own).
 */
public final class StagingMarks {

  /** Prefix of staging branch names. */
  public static final String BRANCH_PREFIX = BranchNames.STAGING_PREFIX;
  /** Prefix of lease properties. */
  public static final String LEASE_PREFIX = "transforms.lease.";
  /** Prefix of the properties that hold a build's staged shape ({@link StagedShape}). */
  public static final String SHAPE_PREFIX = "transforms.shape.";

  private StagingMarks() {}

  /**
   * The staging branch of a build.
   *
   * @param buildId the build
   * @return the branch name
   */
  public static String branch(String buildId) {
    return BranchNames.staging(buildId);
  }

  /**
   * The build a staging branch belongs to.
   *
   * @param branch a branch name
   * @return the build id, or empty if the branch is not a staging branch (also accepts the
   *     {@code transforms_BUILD_N} names of earlier versions)
   */
  public static Optional<String> buildOfBranch(String branch) {
    if (!branch.startsWith(BRANCH_PREFIX) || branch.length() == BRANCH_PREFIX.length()) {
      return Optional.empty();
    }
    String rest = branch.substring(BRANCH_PREFIX.length());
    int underscore = rest.indexOf('_');
    return Optional.of(underscore < 0 ? rest : rest.substring(0, underscore));
  }

  /**
   * The lease property of a build.
   *
   * @param buildId the build
   * @return the property key
   */
  public static String leaseKey(String buildId) {
    return LEASE_PREFIX + buildId;
  }

  /**
   * The lease a build holds on a table, if any.
   *
   * @param table the table
   * @param buildId the build
   * @return the lease
   */
  public static Optional<BuildLease> lease(Table table, String buildId) {
    return BuildLease.decode(buildId, table.properties().get(leaseKey(buildId)));
  }

  /**
   * Every build that left a mark on a table: a staging branch, a lease or a shape mark.
   *
   * @param table the table, as loaded
   * @return the build ids, in the order met
   */
  public static Set<String> buildsMarking(Table table) {
    Set<String> builds = new LinkedHashSet<>();
    table.refs().keySet().forEach(ref -> buildOfBranch(ref).ifPresent(builds::add));
    for (Map.Entry<String, String> property : table.properties().entrySet()) {
      if (property.getKey().startsWith(LEASE_PREFIX)) {
        builds.add(property.getKey().substring(LEASE_PREFIX.length()));
      } else if (property.getKey().startsWith(SHAPE_PREFIX)) {
        builds.add(property.getKey().substring(SHAPE_PREFIX.length()));
      }
    }
    return builds;
  }

  /**
   * The staging branches of a build on a table.
   *
   * @param table the table
   * @param buildId the build
   * @return the branch names
   */
  public static Set<String> branchesOf(Table table, String buildId) {
    Set<String> branches = new LinkedHashSet<>();
    table.refs().forEach((name, ref) -> {
      if (ref.isBranch() && buildOfBranch(name).filter(buildId::equals).isPresent()) {
        branches.add(name);
      }
    });
    return branches;
  }

  /**
   * Removes a build's marks from a table: first its staging branches, then the snapshots only they
   * reached (and any snapshot of the build no ref reaches any more), then its lease and shape mark, with
   * the schemas only the build used. The lease goes last, so a process that dies half-way leaves a mark
   * for the next build to finish the job.
   *
   * @param table the table
   * @param buildId the build
   * @param points the crash points' prefix, {@code discard} or {@code recover}
   * @return how many snapshots were expired
   */
  static int remove(Table table, String buildId, String points) {
    table.refresh();
    Set<String> branches = branchesOf(table, buildId);
    Set<Long> expired = new LinkedHashSet<>(BranchSnapshots.onlyOn(table, branches));
    if (!branches.isEmpty()) {
      TableCommits.commit(table, transaction -> {
        Set<String> present = branchesOf(table, buildId);
        if (!present.isEmpty()) {
          ManageSnapshots refs = transaction.manageSnapshots();
          present.forEach(refs::removeBranch);
          refs.commit();
        }
      });
      CrashPoints.reached(points + ".branch");
    }
    expired.addAll(BranchSnapshots.unreachableOf(table, buildId));
    BranchSnapshots.expire(table, expired);
    if (!expired.isEmpty()) {
      CrashPoints.reached(points + ".expired");
    }
    TableOperations operations = ((HasTableOperations) table).operations();
    CommitRetry.onConflict(TableCommits.ATTEMPTS).run(() -> {
      TableMetadata base = operations.refresh();
      Set<String> marks = new LinkedHashSet<>(Set.of(leaseKey(buildId), StagedShape.key(buildId)));
      marks.retainAll(base.properties().keySet());
      if (!marks.isEmpty()) {
        TableMetadata.Builder builder = TableMetadata.buildFrom(base).removeProperties(marks);
        Set<Integer> unused = unusedSchemas(base, buildId);
        if (!unused.isEmpty()) {
          new MetadataUpdate.RemoveSchemas(unused).applyTo(builder);
        }
        operations.commit(base, builder.build());
      }
      return null;
    }, last -> null); // the marks stay: the lease, once lapsed, lets the next build remove them
    table.refresh();
    return expired.size();
  }

  /**
   * The schemas a build added that nothing uses: not current, named by no snapshot and by no other
   * build's shape mark.
   */
  private static Set<Integer> unusedSchemas(TableMetadata base, String buildId) {
    Optional<StagedShape> shape = StagedShape.staged(base, buildId);
    if (shape.isEmpty()) {
      return Set.of();
    }
    Set<Integer> unused = new LinkedHashSet<>(shape.get().addedSchemas());
    unused.remove(base.currentSchemaId());
    base.snapshots().forEach(s -> {
      if (s.schemaId() != null) {
        unused.remove(s.schemaId());
      }
    });
    base.properties().forEach((key, value) -> {
      if (key.startsWith(StagedShape.PREFIX) && !key.equals(StagedShape.key(buildId))) {
        StagedShape.decode(value).ifPresent(other -> {
          unused.remove(other.schemaId());
          unused.removeAll(other.addedSchemas());
        });
      }
    });
    unused.retainAll(base.schemasById().keySet());
    return unused;
  }
}
