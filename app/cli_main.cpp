#include "CliApplication.h"

#include <QCoreApplication>
#include <QTextStream>

#include <cstdio>

int main(int argc, char* argv[])
{
    QCoreApplication application(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("constraintlab-cli"));
    QTextStream out(stdout);
    QTextStream err(stderr);
    clab::CliApplication cli;
    return cli.run(QCoreApplication::arguments().mid(1), out, err);
}
