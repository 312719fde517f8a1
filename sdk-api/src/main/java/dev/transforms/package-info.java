/**
 * The runtime driven from Java: {@link dev.transforms.Transforms} opens a configuration and builds, plans,
 * promotes and lists what it selects, as the command line and the testing kit do. It sits above every
 * package of the runtime, whose values ({@code dev.transforms.runtime}) it takes and returns.
 */
package dev.transforms;
