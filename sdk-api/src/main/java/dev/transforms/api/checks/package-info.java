/**
 * Data expectations: checks declared on a transform's outputs and evaluated on what the transform
 * staged, before anything is published.
 *
 * <p>Put them on a {@code @TableOutput} parameter:
 *
 * <pre>{@code
 * @Transform
 * public void orders(@TableInput("/Shop/raw/orders") TableTransformInput raw,
 *     @TableOutput("/Shop/clean/orders")
 *     @PrimaryKey("order_id")
 *     @NotNull({"customer_id", "status"})
 *     @AllowedValues(column = "status", values = {"open", "paid", "shipped"})
 *     @RowCount(min = 1, maxDropPercent = 10)
 *     TableTransformOutput clean) { ... }
 * }</pre>
 *
 * <p>A check that fails at {@link Level#FAIL} (the default) stops the publication: the output stays
 * exactly as it was and the build reports the check, the number of violating rows and examples. A
 * check at {@link Level#WARN} is reported and the output is published. See {@code docs/expectations.md}.
 */
package dev.transforms.api.checks;

import dev.transforms.api.checks.AllowedValues;
import dev.transforms.api.checks.Level;
import dev.transforms.api.checks.NotNull;
import dev.transforms.api.checks.PrimaryKey;
import dev.transforms.api.checks.RowCount;
