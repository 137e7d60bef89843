fn main() {
    tooltable_codegen::build();
}
