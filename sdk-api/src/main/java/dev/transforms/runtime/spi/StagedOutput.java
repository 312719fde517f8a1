package dev.transforms.runtime.spi;

import java.util.OptionalLong;
import org.apache.iceberg.Table;

/**
 * An output as a transform left it, before publication: what data expectations are evaluated on.
 *
 * <p>Engine SPI: it changes only as the {@linkplain dev.transforms.runtime.spi package} promises.
 *
 * @param output the bound output
 * @param table the output table ({@code main} still holds the previous version)
 * @param branch the build's staging branch
 * @param stagedSnapshotId the head of the staging branch: everything the transform wrote
 * @param publishedSnapshotId {@code main} as last published; empty for a new or empty output
 * @param appendedSince when the build is incremental and only appended to the output: the snapshot
 *     after which the new rows were appended, so row-wise checks read those rows only; empty otherwise
 */
public record StagedOutput(BoundOutput output, Table table, String branch, long stagedSnapshotId,
    OptionalLong publishedSnapshotId, OptionalLong appendedSince) {}
