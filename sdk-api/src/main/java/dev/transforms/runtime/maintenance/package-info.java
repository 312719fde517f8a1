/**
 * Table care from Java, what {@code transforms maintain} and {@code transforms health} call:
 * {@link dev.transforms.runtime.maintenance.TableMaintenance} runs compaction, manifest rewrites,
 * snapshot expiry and orphan-file removal under the safety rules of {@code docs/maintenance.md};
 * {@link dev.transforms.runtime.maintenance.TableHealth} measures a table;
 * {@link dev.transforms.runtime.maintenance.MaintenancePolicies} reads the {@code maintain.*} keys of a
 * configuration. {@link dev.transforms.runtime.maintenance.MaintenanceEngine} is the interface the
 * engines implement.
 */
package dev.transforms.runtime.maintenance;
