package dev.transforms.runtime.spi;

import dev.transforms.runtime.ResolvedTable;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.iceberg.Table;

/**
 * An output parameter bound to its dataset for one build.
 *
 * <p>Engine SPI: it changes only as the {@linkplain dev.transforms.runtime.spi package} promises.
 *
 * @param parameter the validated parameter
 * @param resolved the catalog table the path resolves to
 * @param existing the table as it was when the transform started; empty when this build creates it
 *     (or for a file dataset)
 * @param fileLocation the folder of a file dataset; empty for a table
 */
public record BoundOutput(
    ParameterSpec parameter,
    ResolvedTable resolved,
    Optional<Table> existing,
    Optional<Path> fileLocation) {}
