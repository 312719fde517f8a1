/**
 * The engine SPI: what an engine implements to run transforms ({@link dev.transforms.runtime.spi.EngineProvider},
 * {@link dev.transforms.runtime.spi.Engine}) and to load files ({@link dev.transforms.runtime.spi.LoadEngine}),
 * found with {@link java.util.ServiceLoader}, and the values the runtime hands it: the
 * {@link dev.transforms.runtime.spi.TransformRun} with its bound inputs and outputs, the
 * {@link dev.transforms.runtime.spi.OutputStaging} its writes go to. Table maintenance's engine interface is
 * {@link dev.transforms.runtime.maintenance.MaintenanceEngine}, public already.
 *
 * <p><b>Compatibility.</b> Published for engines, the SDK's own and others'; not for transforms. A patch
 * release changes nothing here. A minor release may add (a default method, a value's accessor, a type);
 * it removes or changes a signature only after the previous minor release deprecated it and its notes
 * said so. A major release may change anything. The runtime creates the values (records and
 * {@code TransformRun}): engines read them, and construct them only in tests. Signatures that still name
 * {@code dev.transforms.runtime.internal} types (the transform's spec, the incremental decision,
 * advisories, catalogs, lineage) fall outside this promise until those types are published too.
 */
package dev.transforms.runtime.spi;
