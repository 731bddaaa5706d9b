#include "cli.h"

#include <clocale>
#include <iostream>

int main(int argc, char** argv) {
    std::setlocale(LC_ALL, "C"); // numbers parse and print in the C locale (CLI.md)
    std::vector<std::string> args(argv + 1, argv + argc);
    return cl::cli::run_cli(args, std::cout, std::cerr);
}
