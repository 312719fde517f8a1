/**
 * The engine SPI: what an engine implements to run transforms ({@link dev.transforms.runtime.spi.EngineProvider},
 * {@link dev.transforms.runtime.spi.Engine}) and to load files ({@link dev.transforms.runtime.spi.LoadEngine}),
 * found with {@link java.util.ServiceLoader}, and the values the runtime hands it: the
 * {@link dev.transforms.runtime.spi.TransformRun} with its bound inputs and outputs, the
 * {@link dev.transforms.runtime.spi.OutputStaging} its writes go to. Table maintenance's engine interface is
 * {@link dev.transforms.runtime.maintenance.MaintenanceEngine}, public already.
 *
 * <p>Beside them, what an engine reads and uses on the way: the transform as validated
 * ({@link dev.transforms.runtime.spi.TransformSpec}, {@link dev.transforms.runtime.spi.ParameterSpec},
 * {@link dev.transforms.runtime.spi.CheckSpec}, {@link dev.transforms.runtime.spi.IncrementalSpec},
 * {@link dev.transforms.runtime.spi.DatasetKind}), the {@link dev.transforms.runtime.spi.IncrementalDecision},
 * the changes to apply ({@link dev.transforms.runtime.spi.ChangeRange}, {@link dev.transforms.runtime.spi.KeyFold}),
 * advisories ({@link dev.transforms.runtime.spi.AdvisoryRule}, {@link dev.transforms.runtime.AdvisorySettings},
 * {@link dev.transforms.runtime.spi.RunAdvisories}, {@link dev.transforms.runtime.spi.FileSizes}), commits
 * ({@link dev.transforms.runtime.spi.CommitRetry}, {@link dev.transforms.runtime.spi.CommittedFiles}), file outputs
 * ({@link dev.transforms.runtime.spi.StagedFolder}, {@link dev.transforms.runtime.Locations}), lineage
 * ({@link dev.transforms.runtime.spi.RunLineage}), crash points, quiet logging and counted nouns.
 *
 * <p>Lineage has an SPI of its own, beside the engines': a {@link dev.transforms.runtime.spi.LineageProvider}
 * (the {@code sdk-lineage} module's sends OpenLineage events) starts a build's
 * {@link dev.transforms.runtime.spi.BuildLineage} from a {@link dev.transforms.runtime.spi.LineageStart}, and
 * hears of each transform's inputs and outputs as {@link dev.transforms.runtime.spi.DatasetFacts}.
 *
 * <p><b>Compatibility.</b> Published for engines, the SDK's own and others'; not for transforms. A patch
 * release changes nothing here. A minor release may add (a default method, a value's accessor, a type);
 * it removes or changes a signature only after the previous minor release deprecated it and its notes
 * said so. A major release may change anything. The runtime creates the values (records and
 * {@code TransformRun}): engines read them, and construct them only in tests. Engines also use
 * {@link dev.transforms.runtime.AdvisorySettings}, {@link dev.transforms.runtime.Locations} and
 * {@link dev.transforms.runtime.Counts}, in the public {@code runtime} package below this one, and the
 * published {@link dev.transforms.runtime.config} and {@link dev.transforms.runtime.secrets} below it. No
 * published signature names an internal type (an architecture test fails the build on one), so what an
 * engine can reach is all under this promise.
 */
package dev.transforms.runtime.spi;
