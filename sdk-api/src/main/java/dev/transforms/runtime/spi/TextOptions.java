package dev.transforms.runtime.spi;

/**
 * How CSV files are laid out, as a {@link LoadEngine} receives it.
 *
 * <p>Engine SPI: it changes only as the {@linkplain dev.transforms.runtime.spi package} promises.
 *
 * @param delimiter the field separator, {@code ,} by default ({@code \t} for {@code .tsv} files)
 * @param header whether the first line names the columns (then matched by name); without a header,
 *     fields come in the declared order
 */
public record TextOptions(char delimiter, boolean header) {

  /** Commas, and a header line. */
  public static final TextOptions DEFAULT = new TextOptions(',', true);
}
