#include "TransportShims.h"
