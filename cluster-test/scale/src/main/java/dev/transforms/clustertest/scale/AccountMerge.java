package dev.transforms.clustertest.scale;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.spark.SparkTransformContext;
import dev.transforms.spark.TableTransformInput;
import dev.transforms.spark.TableTransformOutput;
import org.apache.spark.sql.SparkSession;

/**
 * The benchmark's row edit: the first build copies the account updates into the accounts table, every
 * later one merges them into it on {@code id} (update the rows whose id exists, insert the others).
 */
public class AccountMerge {

  /** The input: one row per changed or new account. */
  public static final String UPDATES = "/Scale/raw/account-updates";
  /** The output: every account, as of the last build. */
  public static final String ACCOUNTS = "/Scale/clean/accounts";

  /**
   * Seeds or merges the accounts.
   *
   * @param ctx the context, for the session
   * @param updates the changed and new accounts
   * @param accounts the accounts table
   */
  @Transform(description = "MERGE INTO accounts on id (scale benchmark)")
  public void mergeAccounts(SparkTransformContext ctx,
      @TableInput(UPDATES) TableTransformInput updates,
      @TableOutput(ACCOUNTS) TableTransformOutput accounts) {
    SparkSession spark = ctx.sparkSession();
    if (!spark.catalog().tableExists(accounts.identifier())) {
      accounts.writeDataFrame(updates.dataframe());
      return;
    }
    spark.sql("MERGE INTO " + accounts.identifier() + " AS target USING " + updates.identifier() + " AS source"
        + " ON target.id = source.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
  }
}
