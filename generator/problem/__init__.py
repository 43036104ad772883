"""Problem layer: parse problem descriptions (benchdnn command lines and batch files) into cases."""
