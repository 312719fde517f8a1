package dev.transforms.testengine;

import dev.transforms.api.Handle;
import dev.transforms.api.TableOutput;

/** A handle of an engine that is never installed, to test the missing-engine error. */
@Handle(engine = "absent", role = Handle.Role.OUTPUT, paths = {TableOutput.class}, artifact = "dev.transforms:sdk-absent")
public interface OtherEngineOutput {}
